import { Group } from '@mantine/core'
import { ExcelImportEntry } from '../imports/ExcelImportEntry'
import { StandardImportEntry } from '../imports/StandardImportEntry'
import { BulkNeedsEntry } from './BulkNeedsEntry'
import { SingleNeedEntry } from './SingleNeedEntry'

/**
 * The shop's add bar (PRODUCT §2 "Add bar and imports"): a row of entries, each
 * a button opening its own form: a single need, a bulk add, the standard
 * import, and the Excel file import (whose form links the example file and
 * the product list).
 */
export function AddBar() {
  return (
    <Group component="section" aria-label="Ajouter des besoins" gap="xs">
      <SingleNeedEntry />
      <BulkNeedsEntry />
      <StandardImportEntry />
      <ExcelImportEntry />
    </Group>
  )
}
