// Two classes that contain each other.
model CycleMutual
  model A
    B b;
  end A;
  model B
    A a;
  end B;
  A top;
end CycleMutual;
