export const roundLength = 30
