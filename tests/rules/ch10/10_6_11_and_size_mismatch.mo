// 10.6.11: and / or on arrays require matching dimensions
model AndSizeMismatch
  Boolean c[2] = {true, false} and {true, false, true};
end AndSizeMismatch;
