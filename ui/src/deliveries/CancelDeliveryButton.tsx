import { Button, Group, Modal, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { formatLongDay } from '../format'
import type { DeliveryRow } from './model'
import { de } from '../grammar'

/** The dialog's texts: a cancellation is final, so the shop confirms it first. */
export const CANCEL_DIALOG = {
  title: 'Annuler cette livraison ?',
  keep: 'Garder la livraison',
  confirm: "Confirmer l'annulation",
  body: (row: DeliveryRow) =>
    `La livraison n° ${row.delivery.chrono} ${de(row.partner)}, prévue le ${formatLongDay(row.delivery.date)}, sera annulée.`,
  final: "Elle ne comptera plus dans vos stocks ni dans la facture, et l'annulation ne pourra pas être défaite.",
} as const

/**
 * "Annuler la livraison" (PRODUCT §2 "Deliveries page"): opens a dialog that
 * says what cancelling does; only its confirmation cancels. The dialog opens
 * with the focus on the safe choice ("Garder la livraison"), keeps it inside
 * while open, and gives it back to the button when it closes.
 */
export function CancelDeliveryButton({
  row,
  busy,
  disabled,
  onConfirm,
}: {
  row: DeliveryRow
  busy: boolean
  disabled: boolean
  onConfirm: () => void
}) {
  const [opened, { open, close }] = useDisclosure(false)
  return (
    <>
      <Button variant="light" color="red" onClick={open} disabled={disabled}>
        {busy ? 'en cours...' : 'Annuler la livraison'}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={CANCEL_DIALOG.title}
        closeButtonProps={{ 'aria-label': 'Fermer' }}
        returnFocus
        trapFocus
      >
        <Stack gap="md">
          <Text>{CANCEL_DIALOG.body(row)}</Text>
          <Text>{CANCEL_DIALOG.final}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              {CANCEL_DIALOG.keep}
            </Button>
            <Button
              color="red"
              onClick={() => {
                close()
                onConfirm()
              }}
            >
              {CANCEL_DIALOG.confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  )
}
