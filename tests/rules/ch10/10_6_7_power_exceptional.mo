// 10.6.7: a ^ b exceptional cases are illegal (0.0^0.0 with Real b, 0^negative, negative^non-integer)
model PowerExceptional
  constant Real c = 0.0 ^ (-1);
end PowerExceptional;
