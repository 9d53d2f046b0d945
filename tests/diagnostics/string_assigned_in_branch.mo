// A String assigned in a branch whose condition is known only at run time: rtc's functions
// become expressions of numbers, so the String cannot follow the branch; refused instead of
// taking one branch's value silently.
model StringAssignedInBranch
  function label
    input Real x;
    output Real n;
  protected
    String s = "low";
  algorithm
    if x > 0.5 then
      s := "high";
    end if;
    n := Modelica.Utilities.Strings.length(s);
  end label;
  Real n = label(time);
end StringAssignedInBranch;
