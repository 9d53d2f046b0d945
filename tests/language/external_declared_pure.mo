// An external function declared pure (specification 12.3: external functions are declared
// pure or impure) is called in an equation like any pure function, without a word: C's sin
// from the math library, y = sin(time) at t = 1 is 0.8414709848078965; a short definition of
// it keeps its purity.
// run: method=be step=0.5 stop=1
// expect: y 0.8414709848078965
// expect: z 0.8414709848078965
model ExternalDeclaredPure
  pure function Sine
    input Real u;
    output Real y;
    external "C" y = sin(u);
  end Sine;
  function SineAgain = Sine;
  Real y = Sine(time);
  Real z = SineAgain(time);
end ExternalDeclaredPure;
