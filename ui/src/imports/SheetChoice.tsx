import { Select } from '@mantine/core'

interface SheetChoiceProps {
  /** The sheets holding a needs table, in the file's order. */
  sheets: readonly string[]
  /** The sheet chosen or read; null when none is yet (an ambiguous file). */
  value: string | null
  disabled: boolean
  onChoose: (sheet: string) => void
}

/**
 * The choice of the sheet to import when several sheets of the file hold a
 * needs table (PRODUCT §14 "File format"): choosing one previews it again.
 */
export function SheetChoice({ sheets, value, disabled, onChoose }: SheetChoiceProps) {
  return (
    <Select
      label="Feuille à importer"
      description="Plusieurs feuilles du fichier contiennent un tableau de besoins."
      placeholder="Choisir une feuille"
      data={[...new Set(sheets)]}
      value={value}
      onChange={(sheet) => {
        if (sheet !== null && sheet !== value) onChoose(sheet)
      }}
      allowDeselect={false}
      disabled={disabled}
      maw={360}
    />
  )
}
