import { Group } from '@mantine/core'
import { BulkNeedsEntry } from './BulkNeedsEntry'
import { SingleNeedEntry } from './SingleNeedEntry'

/**
 * The shop's add bar (SPEC §2 "Add bar and imports"): a row of entries, each
 * a button opening its own form. Imports (issue 4) add theirs — Excel file,
 * standard import, downloads — as further entries of this row.
 */
export function AddBar() {
  return (
    <Group component="section" aria-label="Ajouter des besoins" gap="xs">
      <SingleNeedEntry />
      <BulkNeedsEntry />
    </Group>
  )
}
