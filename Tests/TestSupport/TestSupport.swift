// TestSupport: helpers shared by the test targets (temporary files, snapshot asserts).
