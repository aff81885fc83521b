export const fixtureRows = [1, 2, 3]
