import { Group } from '@mantine/core'
import { ModalEntry } from '../components/ModalEntry'
import { FileImport } from '../imports/FileImport'
import { StandardImportForm } from '../imports/StandardImportForm'
import { BulkNeedsForm } from './BulkNeedsForm'
import { SingleNeedForm } from './SingleNeedForm'

/**
 * The shop's add bar (PRODUCT §2 "Add bar and imports"): a row of entries, each
 * a button opening its own form: a single need, a bulk add (one product over
 * several months), the standard import (simulation, then commit), and the
 * Excel file import (whose form links the example file and the product list).
 */
export function AddBar() {
  return (
    <Group component="section" aria-label="Ajouter des besoins" gap="xs">
      <ModalEntry label="Ajouter un besoin" title="Ajouter un besoin">
        {(close) => <SingleNeedForm onDone={close} />}
      </ModalEntry>
      <ModalEntry label="Ajout groupé" title="Ajout groupé de besoins" size="lg">
        {(close) => <BulkNeedsForm onDone={close} />}
      </ModalEntry>
      <ModalEntry label="Import standard" title="Import standard" size="xl">
        {() => <StandardImportForm />}
      </ModalEntry>
      <ModalEntry label="Import Excel" title="Importer un fichier Excel" size="lg">
        {() => <FileImport />}
      </ModalEntry>
    </Group>
  )
}
