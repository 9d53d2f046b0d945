within Rtc;
package Blocks "Signal connectors and continuous input/output blocks (names as in Modelica.Blocks)"
  import SI = Rtc.SI;

  // ---------------------------------------------------------------- connectors
  connector RealInput = input Real "'input Real' as connector";
  connector RealOutput = output Real "'output Real' as connector";

  // ---------------------------------------------------------------- partial blocks
  partial block SO "Single output continuous block"
    RealOutput y "Connector of Real output signal";
  end SO;

  partial block SISO "Single input single output continuous block"
    RealInput u "Connector of Real input signal";
    RealOutput y "Connector of Real output signal";
  end SISO;

  partial block SI2SO "Two single inputs and one single output continuous block"
    RealInput u1 "Connector of Real input signal 1";
    RealInput u2 "Connector of Real input signal 2";
    RealOutput y "Connector of Real output signal";
  end SI2SO;

  // ---------------------------------------------------------------- sources
  block Constant "Generate a constant signal of type Real"
    extends SO;
    parameter Real k(start = 1) "Constant output value";
  equation
    y = k;
  end Constant;

  block Step "Generate a step signal of type Real"
    extends SO;
    parameter Real height = 1 "Height of step";
    parameter Real offset = 0 "Offset of output signal y";
    parameter SI.Time startTime = 0 "Output y = offset for time < startTime";
  equation
    y = offset + (if time < startTime then 0 else height);
  end Step;

  block Sine "Generate a sine signal"
    extends SO;
    parameter Real amplitude = 1 "Amplitude of sine wave";
    parameter SI.Frequency f(start = 1) "Frequency of sine wave";
    parameter SI.Angle phase = 0 "Phase of sine wave";
    parameter Real offset = 0 "Offset of output signal y";
    parameter SI.Time startTime = 0 "Output y = offset for time < startTime";
  equation
    y = offset + (if time < startTime then 0
                  else amplitude*sin(2*Rtc.Constants.pi*f*(time - startTime) + phase));
  end Sine;

  // ---------------------------------------------------------------- math
  block Gain "Output the product of a gain value with the input signal"
    extends SISO;
    parameter Real k(start = 1) "Gain value multiplied with input signal";
  equation
    y = k*u;
  end Gain;

  block Add "Output the sum of the two inputs, y = k1*u1 + k2*u2"
    extends SI2SO;
    parameter Real k1 = 1 "Gain of input signal 1";
    parameter Real k2 = 1 "Gain of input signal 2";
  equation
    y = k1*u1 + k2*u2;
  end Add;

  block Feedback "Output difference between commanded and feedback input, y = u1 - u2"
    extends SI2SO;
  equation
    y = u1 - u2;
  end Feedback;

  // ---------------------------------------------------------------- continuous
  block Integrator "Output the integral of the input signal, der(y) = k*u"
    extends SISO(y(start = y_start, fixed = true));
    parameter Real k = 1 "Integrator gain";
    parameter Real y_start = 0 "Initial value of output (= state)";
  equation
    der(y) = k*u;
  end Integrator;

  block FirstOrder "First order transfer function block, k/(T*s + 1)"
    extends SISO(y(start = y_start, fixed = true));
    parameter Real k = 1 "Gain";
    parameter SI.Time T(start = 1) "Time constant";
    parameter Real y_start = 0 "Initial value of output (= state)";
  equation
    der(y) = (k*u - y)/T;
  end FirstOrder;

  block PI "Proportional-integral controller, k*(1 + 1/(T*s))"
    extends SISO;
    parameter Real k = 1 "Gain";
    parameter SI.Time T(start = 1) "Time constant of the integrator";
    parameter Real x_start = 0 "Initial value of the integrator state";
    Real x(start = x_start, fixed = true) "State of the block";
  equation
    der(x) = u/T;
    y = k*(x + u);
  end PI;

  block Limiter "Limit the range of a signal, y = min(max(u, uMin), uMax)"
    extends SISO;
    parameter Real uMax(start = 1) "Upper limit of input signal";
    parameter Real uMin = -uMax "Lower limit of input signal";
  equation
    y = min(max(u, uMin), uMax);
  end Limiter;

  block StateSpace "Linear state space system, der(x) = A*x + B*u, y = C*x + D*u"
    parameter Real A[:, size(A, 1)] = [1, 0; 0, 1] "Matrix A of state space model";
    parameter Real B[size(A, 1), :] = [1; 1] "Matrix B of state space model";
    parameter Real C[:, size(A, 1)] = [1, 1] "Matrix C of state space model";
    parameter Real D[size(C, 1), size(B, 2)] = zeros(size(C, 1), size(B, 2))
      "Matrix D of state space model";
    RealInput u[size(B, 2)] "Connector of Real input signals";
    RealOutput y[size(C, 1)] "Connector of Real output signals";
    Real x[size(A, 1)](each start = 0, each fixed = true) "State vector";
  equation
    der(x) = A*x + B*u;
    y = C*x + D*u;
  end StateSpace;
end Blocks;
