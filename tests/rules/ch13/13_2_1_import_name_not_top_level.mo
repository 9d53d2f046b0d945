// 13.2.1: the name in an import-clause is looked up from the top level, not lexically (import Q.c inside P fails) (run: --model P.ImportNameNotTopLevel)
package P
  package Q
    constant Real c = 1;
  end Q;
  model ImportNameNotTopLevel
    import Q.c;
    Real x = c;
  end ImportNameNotTopLevel;
end P;
