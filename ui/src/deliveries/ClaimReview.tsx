import { Button, Group } from '@mantine/core'
import { useState } from 'react'
import { reviewClaim } from '../store/deliveries'
import type { DeliveryRow } from './model'

/** The shop's answer to a pending claim (PRODUCT §4): accept or refuse. */
export function ClaimReview({ row }: { row: DeliveryRow }) {
  const [busy, setBusy] = useState<boolean | null>(null)
  const answer = async (accepted: boolean) => {
    setBusy(accepted)
    await reviewClaim(row.order._id, row.delivery._id, accepted)
    setBusy(null)
  }
  return (
    <Group>
      <Button onClick={() => answer(true)} disabled={busy !== null}>
        {busy === true ? 'en cours...' : "Accepter l'avoir"}
      </Button>
      <Button variant="light" color="red" onClick={() => answer(false)} disabled={busy !== null}>
        {busy === false ? 'en cours...' : "Refuser l'avoir"}
      </Button>
    </Group>
  )
}
