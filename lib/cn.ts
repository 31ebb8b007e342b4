import { type ClassValue, clsx } from 'clsx'
import { twMerge } from 'tailwind-merge'

/**
 * Joins class names and lets a later Tailwind class override an earlier one. For server
 * components: tailwind-merge weighs about 9 kB gzipped, so client islands use plain `clsx`.
 */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs))
}
