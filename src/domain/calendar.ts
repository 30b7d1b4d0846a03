// The one test of whether a year, month and day name a real calendar day, shared by every reader of dates
// (registry exports, query parameters, updated_since): Date rolls 2026-02-30 over to 2 March, so a real day is
// one that reads back the same.

/** Whether year-month-day (month 1-12) is a day of the proleptic Gregorian calendar, e.g. not 2023-02-29. */
export function isCalendarDay (year: number, month: number, day: number): boolean {
  if (![year, month, day].every(Number.isInteger)) return false
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}
