import { Button, Modal } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { SingleNeedForm } from './SingleNeedForm'

/** Add bar entry: one need. */
export function SingleNeedEntry() {
  const [opened, { open, close }] = useDisclosure(false)
  return (
    <>
      <Button variant="light" onClick={open}>
        Ajouter un besoin
      </Button>
      <Modal opened={opened} onClose={close} title="Ajouter un besoin" closeButtonProps={{ 'aria-label': 'Fermer' }}>
        <SingleNeedForm onDone={close} />
      </Modal>
    </>
  )
}
