// 8.3.5.3: equations in a when: only v=expr, (outs)=f(..), assert/terminate/reinit, or for/if of such
// (an empty call, of a function without outputs, is the zero-output form, 12.4.7; a call
// whose outputs are dropped is none of these forms)
function f
  input Real u;
  output Real y = 2 * u;
end f;
model WhenBodyFunctionCall
  Real x;
equation
  when time > 1 then
    x = 1;
    f(x);
  end when;
end WhenBodyFunctionCall;
