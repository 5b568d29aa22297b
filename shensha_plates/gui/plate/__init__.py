"""The plate drawing: one graphics item per ring (the turning discs, the fixed base ring of branches,
the bands behind them, the selection wedge, trace marks), the scene that stacks them into the upper
and lower plates, and the view that turns them with the pointer, wheel and keys."""
