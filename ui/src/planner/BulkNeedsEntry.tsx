import { Button, Modal } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { BulkNeedsForm } from './BulkNeedsForm'

/** Add bar entry: one product over several months. */
export function BulkNeedsEntry() {
  const [opened, { open, close }] = useDisclosure(false)
  return (
    <>
      <Button variant="light" onClick={open}>
        Ajout groupé
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title="Ajout groupé de besoins"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Fermer' }}
      >
        <BulkNeedsForm onDone={close} />
      </Modal>
    </>
  )
}
