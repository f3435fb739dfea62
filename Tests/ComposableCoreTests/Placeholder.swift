// Local placeholder (untracked): the target's owner adds its tests.
