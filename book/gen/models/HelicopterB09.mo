model HelicopterB09 "Helicopter with the literal brief value B[1] = 0.9"
  extends Helicopter(B = {0.9, 6.3, 0});
end HelicopterB09;
