// 18.8.4: versionDate is a UTC date in the format YYYY-MM-DD (dateModified: YYYY-MM-DD hh:mm:ssZ)
model VersionDateFormat
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(version = "1.0", versionDate = "10 April 2008");
end VersionDateFormat;
