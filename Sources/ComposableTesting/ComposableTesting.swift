// ComposableTesting: TestStore, its failure messages, and test clocks.
