import { Button, Group } from '@mantine/core'
import { useRef, useState } from 'react'
import { reviewClaim } from '../store/deliveries'
import type { DeliveryRow } from './model'

/**
 * The shop's answer to a pending claim (PRODUCT §4): accept or refuse. The
 * buttons go once answered: the focus then goes to the delivery note, which
 * says the outcome (WCAG 2.4.3), or back to the button when it failed.
 */
export function ClaimReview({ row }: { row: DeliveryRow }) {
  const [busy, setBusy] = useState<boolean | null>(null)
  const group = useRef<HTMLDivElement>(null)
  const answer = async (accepted: boolean) => {
    const index = accepted ? 0 : 1
    setBusy(accepted)
    const result = await reviewClaim(row.order._id, row.delivery._id, accepted)
    setBusy(null)
    window.setTimeout(() => {
      const button = group.current?.querySelectorAll('button')[index]
      const note = document.querySelector<HTMLElement>('section[aria-label="Bon de livraison"]')
      if (!result.ok && button) button.focus()
      else if (note) {
        note.tabIndex = -1
        note.focus()
      }
    }, 0)
  }
  return (
    <Group ref={group}>
      <Button onClick={() => answer(true)} disabled={busy !== null}>
        {busy === true ? 'en cours...' : "Accepter l'avoir"}
      </Button>
      <Button variant="light" color="red" onClick={() => answer(false)} disabled={busy !== null}>
        {busy === false ? 'en cours...' : "Refuser l'avoir"}
      </Button>
    </Group>
  )
}
