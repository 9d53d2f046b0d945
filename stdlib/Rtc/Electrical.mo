within Rtc;
package Electrical "Analog electrical components (names as in Modelica.Electrical.Analog)"
  import SI = Rtc.SI;

  // ---------------------------------------------------------------- interfaces
  connector Pin "Pin of an electrical component"
    SI.Voltage v "Potential at the pin";
    flow SI.Current i "Current flowing into the pin";
  end Pin;

  connector PositivePin "Positive pin of an electrical component"
    SI.Voltage v "Potential at the pin";
    flow SI.Current i "Current flowing into the pin";
  end PositivePin;

  connector NegativePin "Negative pin of an electrical component"
    SI.Voltage v "Potential at the pin";
    flow SI.Current i "Current flowing into the pin";
  end NegativePin;

  partial model OnePort "Component with two electrical pins p and n and current i from p to n"
    SI.Voltage v "Voltage drop of the two pins (= p.v - n.v)";
    SI.Current i "Current flowing from pin p to pin n";
    PositivePin p "Positive electrical pin";
    NegativePin n "Negative electrical pin";
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end OnePort;

  // ---------------------------------------------------------------- basic
  model Ground "Ground node"
    Pin p "Pin to be grounded";
  equation
    p.v = 0;
  end Ground;

  model Resistor "Ideal linear electrical resistor, v = R*i"
    extends OnePort;
    parameter SI.Resistance R(start = 1) "Resistance";
  equation
    v = R*i;
  end Resistor;

  model Conductor "Ideal linear electrical conductor, i = G*v"
    extends OnePort;
    parameter SI.Conductance G(start = 1) "Conductance";
  equation
    i = G*v;
  end Conductor;

  model Capacitor "Ideal linear electrical capacitor, C*der(v) = i"
    extends OnePort(v(start = 0));
    parameter SI.Capacitance C(start = 1) "Capacitance";
  equation
    C*der(v) = i;
  end Capacitor;

  model Inductor "Ideal linear electrical inductor, L*der(i) = v"
    extends OnePort(i(start = 0));
    parameter SI.Inductance L(start = 1) "Inductance";
  equation
    L*der(i) = v;
  end Inductor;

  model CubicConductor
    "Nonlinear conductor i = k*v^3 - v: the Van der Pol negative resistor (Cellier & Kofman, eq. 10.9)"
    // Negative differential conductance (-1 S) for |v| < 1/sqrt(3*k), positive above;
    // in parallel with an L-C tank it gives the Van der Pol relaxation oscillator.
    extends OnePort;
    parameter Real k(unit = "A/V3", start = 1) "Coefficient of the cubic term";
  equation
    i = k*v^3 - v;
  end CubicConductor;

  // ---------------------------------------------------------------- sources
  model ConstantVoltage "Source for constant voltage, v = V"
    extends OnePort;
    parameter SI.Voltage V(start = 1) "Value of constant voltage";
  equation
    v = V;
  end ConstantVoltage;

  model StepVoltage "Step voltage source, v = 0 before startTime and V after"
    extends OnePort;
    parameter SI.Voltage V(start = 1) "Height of step";
    parameter SI.Time startTime = 0 "Time instant of the step";
  equation
    v = if time < startTime then 0 else V;
  end StepVoltage;

  model SineVoltage "Sine voltage source, v = V*sin(2*pi*f*time + phase)"
    extends OnePort;
    parameter SI.Voltage V(start = 1) "Amplitude of sine wave";
    parameter SI.Frequency f(start = 1) "Frequency of sine wave";
    parameter SI.Angle phase = 0 "Phase of sine wave";
  equation
    v = V*sin(2*Rtc.Constants.pi*f*time + phase);
  end SineVoltage;

  model ConstantCurrent "Source for constant current, i = I (from p to n through the source)"
    extends OnePort;
    parameter SI.Current I(start = 1) "Value of constant current";
  equation
    i = I;
  end ConstantCurrent;

  model SignalVoltage "Generic voltage source using the input signal as source voltage"
    PositivePin p "Positive electrical pin";
    NegativePin n "Negative electrical pin";
    Rtc.Blocks.RealInput v(unit = "V") "Voltage between pin p and n (= p.v - n.v) as input signal";
    SI.Current i "Current flowing from pin p to pin n";
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end SignalVoltage;
end Electrical;
