// 13.4.3: the class designated by a within-clause must exist
within NoSuchPackage;
model WithinMissingPackage
  Real x = 1;
end WithinMissingPackage;
