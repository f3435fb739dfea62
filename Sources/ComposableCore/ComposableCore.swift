// ComposableCore: Store, the Core layer, reducers and their composition, effects and
// cancellation, dependencies and observation. See README.md, "The architecture".
