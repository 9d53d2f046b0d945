// Signal blocks from the standard library: a PI controller around a first-order plant.
model StdlibBlocks
  Rtc.Blocks.Step setpoint(height = 1, startTime = 0.1);
  Rtc.Blocks.Feedback error;
  Rtc.Blocks.PI controller(k = 2, T = 0.5);
  Rtc.Blocks.Limiter limiter(uMax = 5);
  Rtc.Blocks.FirstOrder plant(k = 1, T = 0.2);
  Rtc.Blocks.StateSpace ss(A = [-1, 0; 0, -2], B = [1; 1], C = [1, 1], D = [0]);
equation
  connect(setpoint.y, error.u1);
  connect(plant.y, error.u2);
  connect(error.y, controller.u);
  connect(controller.y, limiter.u);
  connect(limiter.y, plant.u);
  connect(plant.y, ss.u[1]);
end StdlibBlocks;
