within Rtc;
package Mechanics "One-dimensional mechanical components (names as in Modelica.Mechanics)"

  package Translational "1-D translational mechanics (names as in Modelica.Mechanics.Translational)"
    import SI = Rtc.SI;

    // -------------------------------------------------------------- interfaces
    connector Flange "1-D translational flange"
      SI.Position s "Absolute position of flange";
      flow SI.Force f "Cut force directed into flange";
    end Flange;

    connector Flange_a "1-D translational flange (left, flange axis directed INTO cut plane)"
      SI.Position s "Absolute position of flange";
      flow SI.Force f "Cut force directed into flange";
    end Flange_a;

    connector Flange_b "1-D translational flange (right, flange axis directed OUT OF cut plane)"
      SI.Position s "Absolute position of flange";
      flow SI.Force f "Cut force directed into flange";
    end Flange_b;

    // -------------------------------------------------------------- components
    model Mass "Sliding mass with inertia, m*der(v) = flange_a.f + flange_b.f"
      parameter SI.Mass m(start = 1) "Mass of the sliding mass";
      Flange_a flange_a "Left flange of the mass";
      Flange_b flange_b "Right flange of the mass";
      SI.Position s(start = 0) "Absolute position of the mass";
      SI.Velocity v(start = 0) "Absolute velocity of the mass";
      SI.Acceleration a "Absolute acceleration of the mass";
    equation
      s = flange_a.s;
      s = flange_b.s;
      v = der(s);
      a = der(v);
      m*a = flange_a.f + flange_b.f;
    end Mass;

    model Spring "Linear 1-D translational spring, f = c*(s_rel - s_rel0)"
      parameter SI.TranslationalSpringConstant c(start = 1) "Spring constant";
      parameter SI.Distance s_rel0 = 0 "Unstretched spring length";
      Flange_a flange_a "Left flange of the spring";
      Flange_b flange_b "Right flange of the spring";
      SI.Distance s_rel "Relative distance (= flange_b.s - flange_a.s)";
      SI.Force f "Force between flanges (positive in tension)";
    equation
      s_rel = flange_b.s - flange_a.s;
      f = c*(s_rel - s_rel0);
      flange_b.f = f;
      flange_a.f = -f;
    end Spring;

    model Damper "Linear 1-D translational damper, f = d*v_rel"
      parameter SI.TranslationalDampingConstant d(start = 0) "Damping constant";
      Flange_a flange_a "Left flange of the damper";
      Flange_b flange_b "Right flange of the damper";
      SI.Velocity v_rel "Relative velocity (= der(flange_b.s) - der(flange_a.s))";
      SI.Force f "Force between flanges (positive in tension)";
    equation
      // The relative speed is written with der() of the flange positions (not of a relative
      // position variable) so that it reduces to the speeds of the connected masses.
      v_rel = der(flange_b.s) - der(flange_a.s);
      f = d*v_rel;
      flange_b.f = f;
      flange_a.f = -f;
    end Damper;

    model SpringDamper "Linear 1-D translational spring and damper in parallel"
      parameter SI.TranslationalSpringConstant c(start = 1) "Spring constant";
      parameter SI.TranslationalDampingConstant d(start = 0) "Damping constant";
      parameter SI.Distance s_rel0 = 0 "Unstretched spring length";
      Flange_a flange_a "Left flange";
      Flange_b flange_b "Right flange";
      SI.Distance s_rel "Relative distance (= flange_b.s - flange_a.s)";
      SI.Velocity v_rel "Relative velocity (= der(flange_b.s) - der(flange_a.s))";
      SI.Force f "Force between flanges (positive in tension)";
    equation
      s_rel = flange_b.s - flange_a.s;
      v_rel = der(flange_b.s) - der(flange_a.s);
      f = c*(s_rel - s_rel0) + d*v_rel;
      flange_b.f = f;
      flange_a.f = -f;
    end SpringDamper;

    model Fixed "Fixed flange at position s0"
      parameter SI.Position s0 = 0 "Fixed offset position of housing";
      Flange_b flange "Flange fixed in housing at a given position";
    equation
      flange.s = s0;
    end Fixed;

    // -------------------------------------------------------------- sources
    model Force "External force acting on a flange, driven by an input signal"
      Rtc.Blocks.RealInput f(unit = "N") "Driving force as input signal (positive: pushes flange in +s)";
      Flange_b flange "Flange on which the force acts";
    equation
      flange.f = -f;
    end Force;

    model Position "Flange moved exactly along a reference position (index reduction differentiates the reference)"
      Rtc.Blocks.RealInput s_ref(unit = "m") "Reference position of the flange";
      Flange_b flange "Flange moved along s_ref";
    equation
      flange.s = s_ref;
    end Position;

    // -------------------------------------------------------------- sensors
    model PositionSensor "Ideal sensor to measure the absolute position of a flange"
      Flange_a flange "Flange whose position is measured";
      Rtc.Blocks.RealOutput y(unit = "m") "Absolute position of the flange";
    equation
      y = flange.s;
      flange.f = 0;
    end PositionSensor;

    model SpeedSensor "Ideal sensor to measure the absolute velocity of a flange"
      Flange_a flange "Flange whose velocity is measured";
      Rtc.Blocks.RealOutput y(unit = "m/s") "Absolute velocity of the flange";
    equation
      y = der(flange.s);
      flange.f = 0;
    end SpeedSensor;
  end Translational;

  package Rotational "1-D rotational mechanics (names as in Modelica.Mechanics.Rotational)"
    import SI = Rtc.SI;

    // -------------------------------------------------------------- interfaces
    connector Flange "1-D rotational flange of a shaft"
      SI.Angle phi "Absolute rotation angle of flange";
      flow SI.Torque tau "Cut torque in the flange";
    end Flange;

    connector Flange_a "1-D rotational flange of a shaft (filled circle icon)"
      SI.Angle phi "Absolute rotation angle of flange";
      flow SI.Torque tau "Cut torque in the flange";
    end Flange_a;

    connector Flange_b "1-D rotational flange of a shaft (non-filled circle icon)"
      SI.Angle phi "Absolute rotation angle of flange";
      flow SI.Torque tau "Cut torque in the flange";
    end Flange_b;

    // -------------------------------------------------------------- components
    model Inertia "1-D rotational component with inertia, J*der(w) = flange_a.tau + flange_b.tau"
      parameter SI.Inertia J(start = 1) "Moment of inertia";
      Flange_a flange_a "Left flange of the shaft";
      Flange_b flange_b "Right flange of the shaft";
      SI.Angle phi(start = 0) "Absolute rotation angle of the component";
      SI.AngularVelocity w(start = 0) "Absolute angular velocity of the component";
      SI.AngularAcceleration a "Absolute angular acceleration of the component";
    equation
      phi = flange_a.phi;
      phi = flange_b.phi;
      w = der(phi);
      a = der(w);
      J*a = flange_a.tau + flange_b.tau;
    end Inertia;

    model Spring "Linear 1-D rotational spring, tau = c*(phi_rel - phi_rel0)"
      parameter SI.RotationalSpringConstant c(start = 1) "Spring constant";
      parameter SI.Angle phi_rel0 = 0 "Unstretched spring angle";
      Flange_a flange_a "Left flange of the spring";
      Flange_b flange_b "Right flange of the spring";
      SI.Angle phi_rel "Relative rotation angle (= flange_b.phi - flange_a.phi)";
      SI.Torque tau "Torque between flanges (= flange_b.tau)";
    equation
      phi_rel = flange_b.phi - flange_a.phi;
      tau = c*(phi_rel - phi_rel0);
      flange_b.tau = tau;
      flange_a.tau = -tau;
    end Spring;

    model Damper "Linear 1-D rotational damper, tau = d*w_rel"
      parameter SI.RotationalDampingConstant d(start = 0) "Damping constant";
      Flange_a flange_a "Left flange of the damper";
      Flange_b flange_b "Right flange of the damper";
      SI.AngularVelocity w_rel "Relative angular velocity (= der(flange_b.phi) - der(flange_a.phi))";
      SI.Torque tau "Torque between flanges (= flange_b.tau)";
    equation
      // Relative speed from der() of the flange angles, see Translational.Damper.
      w_rel = der(flange_b.phi) - der(flange_a.phi);
      tau = d*w_rel;
      flange_b.tau = tau;
      flange_a.tau = -tau;
    end Damper;

    model IdealGear "Ideal gear without inertia, flange_a.phi = ratio*flange_b.phi"
      parameter Real ratio(start = 1) "Transmission ratio (flange_a.phi/flange_b.phi)";
      Flange_a flange_a "Input flange";
      Flange_b flange_b "Output flange";
      SI.Angle phi_a "Angle of flange_a";
      SI.Angle phi_b "Angle of flange_b";
    equation
      phi_a = flange_a.phi;
      phi_b = flange_b.phi;
      phi_a = ratio*phi_b;
      0 = ratio*flange_a.tau + flange_b.tau;
    end IdealGear;

    model Fixed "Flange fixed in housing at a given angle phi0"
      parameter SI.Angle phi0 = 0 "Fixed offset angle of housing";
      Flange_b flange "Flange fixed in housing at a given angle";
    equation
      flange.phi = phi0;
    end Fixed;

    // -------------------------------------------------------------- sources
    model Torque "External torque acting on a flange, driven by an input signal"
      Rtc.Blocks.RealInput tau(unit = "N.m") "Driving torque as input signal (positive: accelerates flange in +phi)";
      Flange_b flange "Flange on which the torque acts";
    equation
      flange.tau = -tau;
    end Torque;

    // -------------------------------------------------------------- sensors
    model AngleSensor "Ideal sensor to measure the absolute flange angle"
      Flange_a flange "Flange whose angle is measured";
      Rtc.Blocks.RealOutput y(unit = "rad") "Absolute angle of the flange";
    equation
      y = flange.phi;
      flange.tau = 0;
    end AngleSensor;

    model SpeedSensor "Ideal sensor to measure the absolute flange angular velocity"
      Flange_a flange "Flange whose angular velocity is measured";
      Rtc.Blocks.RealOutput y(unit = "rad/s") "Absolute angular velocity of the flange";
    equation
      y = der(flange.phi);
      flange.tau = 0;
    end SpeedSensor;
  end Rotational;
end Mechanics;
