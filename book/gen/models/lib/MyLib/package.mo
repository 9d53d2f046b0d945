package MyLib "A small user library"
end MyLib;
