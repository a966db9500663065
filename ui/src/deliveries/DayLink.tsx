import { Anchor } from '@mantine/core'
import { Link } from 'wouter'
import { formatDayInWords } from '../format'
import { paths } from '../routing'
import type { DeliveryRow } from './model'

/** The day a producer's deliveries screen links to: its next day of deliveries still to make (today's included), else today. */
export function nextDeliveryDay(rows: readonly DeliveryRow[], today: string): string {
  let next: string | null = null
  for (const r of rows) {
    const d = r.delivery
    if (d.status === 'cancelled' || d.date < today) continue
    if (d.status === 'done' && d.date !== today) continue
    if (next === null || d.date < next) next = d.date
  }
  return next ?? today
}

/** The link from the producer's deliveries to its delivery day (PRODUCT §16 "The farmer's day"). */
export function DayLink({ rows, today }: { rows: readonly DeliveryRow[]; today: string }) {
  const day = nextDeliveryDay(rows, today)
  return (
    <Anchor component={Link} href={paths.prodDay(day)} fw={600}>
      Ma journée de livraison du {formatDayInWords(day)} : cueillette, colisage, tournée
    </Anchor>
  )
}
