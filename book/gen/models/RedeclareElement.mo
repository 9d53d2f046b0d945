model RedeclareElement
  model Tank
    replaceable parameter Real area[:] = {1, 1};
    replaceable model Valve
      parameter Real k = 1;
      Real q = k * time;
    end Valve;
    Valve valve;
    Real total = sum(area);
  end Tank;
  model BigTank
    extends Tank;
    redeclare parameter Real area[3] = {2, 2, 2};
    redeclare model extends Valve(k = 4)
      Real qmax = 2 * q;
    end Valve;
  end BigTank;
  BigTank t;
end RedeclareElement;
