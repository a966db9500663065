import { Button, Modal } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { FileImport } from './FileImport'

/** Add bar entry: import needs from an Excel file. */
export function ExcelImportEntry() {
  const [opened, { open, close }] = useDisclosure(false)
  return (
    <>
      <Button variant="light" onClick={open}>
        Import Excel
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title="Importer un fichier Excel"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Fermer' }}
      >
        <FileImport />
      </Modal>
    </>
  )
}
