// A sampled PI controller on a continuous first-order plant: the controller runs every
// Ts = 0.1 s (time events, `sample`), holds its output between samples (discrete variables
// assigned in a when-equation), and the plant is integrated continuously in between.
// The assignments are sorted: u reads the integrator's new value xi; pre(xi) is the value
// before the sample.
model SampledPI "Sampled PI controller on a first-order plant"
  parameter Real K = 2 "plant gain";
  parameter Real tau(unit = "s") = 0.5 "plant time constant";
  parameter Real Ts(unit = "s") = 0.1 "sampling period";
  parameter Real Kp = 0.5 "proportional gain";
  parameter Real Ki = 2 "integral gain (1/s)";
  parameter Real r = 1 "setpoint";
  Real y(start = 0, fixed = true) "plant output";
  discrete Real xi(start = 0) "integral of the sampled error";
  discrete Real u(start = 0) "controller output, held between samples";
equation
  tau*der(y) = -y + K*u;
  when sample(0, Ts) then
    xi = pre(xi) + Ts*(r - y);
    u = Kp*(r - y) + Ki*xi;
  end when;
  annotation(experiment(StartTime = 0, StopTime = 5, Interval = 1e-3));
end SampledPI;
