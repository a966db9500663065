import { useEffect, useState } from 'react'

/** The current time, refreshed every 30 seconds (locks fall at 12:00). */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 30_000)
    return () => window.clearInterval(timer)
  }, [])
  return now
}
