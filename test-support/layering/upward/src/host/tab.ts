export const tabName = 'tab'
