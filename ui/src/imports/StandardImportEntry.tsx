import { Button, Modal } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { StandardImportForm } from './StandardImportForm'

/** Add bar entry: the standard import (simulation, then commit). */
export function StandardImportEntry() {
  const [opened, { open, close }] = useDisclosure(false)
  return (
    <>
      <Button variant="light" onClick={open}>
        Import standard
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title="Import standard"
        size="xl"
        closeButtonProps={{ 'aria-label': 'Fermer' }}
      >
        <StandardImportForm />
      </Modal>
    </>
  )
}
