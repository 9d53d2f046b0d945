// 8.3.5.3: equations in a when: only v=expr, (outs)=f(..), assert/terminate/reinit, or for/if of such
function f
  input Real u;
algorithm
end f;
model WhenBodyFunctionCall
  Real x;
equation
  when time > 1 then
    x = 1;
    f(x);
  end when;
end WhenBodyFunctionCall;
