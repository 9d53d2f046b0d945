// Arrays of Strings in functions (specification 10.1: arrays of any element type; 10.4 the
// constructor and fill; 10.5 subscripts and slices; 11.2 assignment of elements). As the MSL's
// Strings.scanDelimiter(line, i, {"=", ";"}) takes them when a parameter is read from a file.
// The values: ";" is the 2nd of {"=", ";", "x"}; "b" is none of fill("a", 3); the joined
// array built element by element is "x,y,z" (its length 5); the default {","} has one element;
// a 2x2 array's row 2 column 1 is "c", and its size(…, 2) is 2.
// run: method=be step=0.5 stop=1
// expect: k 2
// expect: none 0
// expect: joinedOk 1
// expect: n 5
// expect: nDefault 1
// expect: corner 1
// expect: cols 2
// expect: y 2
model StringArrays
  function position "where a word is in a list, or 0"
    input String words[:];
    input String wanted;
    output Integer index = 0;
  algorithm
    for i in 1:size(words, 1) loop
      if words[i] == wanted then
        index := i;
        return;
      end if;
    end for;
  end position;
  function count
    input String delimiters[:] = {","};
    output Integer n = size(delimiters, 1);
  end count;
  function join
    input String parts[:];
    output String s = "";
  algorithm
    for i in 1:size(parts, 1) loop
      s := if i == 1 then parts[i] else s + "," + parts[i];
    end for;
  end join;
  function built "an output array assigned element by element and by a slice"
    output String s[3];
  algorithm
    s[1] := "x";
    s[2:3] := {"y", "z"};
  end built;
  function row
    input String table[:, :];
    input Integer r;
    output String words[size(table, 2)];
  algorithm
    words := table[r, :];
  end row;
  function columns
    input String table[:, :];
    output Integer n = size(table, 2);
  end columns;
  function lengthOf
    input String s;
    output Integer n = 0;
  algorithm
    n := if s == "x,y,z" then 5 else -1;
  end lengthOf;
  Integer k = position({"=", ";", "x"}, ";");
  Integer none = position(fill("a", 3), "b");
  Integer joinedOk = if join(built()) == "x,y,z" then 1 else 0;
  Integer n = lengthOf(join(built()));
  Integer nDefault = count();
  Integer corner = position(row({{"a", "b"}, {"c", "d"}}, 2), "c");
  Integer cols = columns({{"a", "b"}, {"c", "d"}});
  Real y(start = 0, fixed = true);
equation
  der(y) = k * joinedOk;
end StringArrays;
