// The tab's runtime reaching for React: it must run without it.
import { useState } from 'react'

export const useTabName = (): string => useState('tab')[0]
