import { Badge, Button, FileInput, Group, Stack, Text } from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import { clearFileImport, importFile, useFileImport } from '../store/imports'
import { ImportLinks } from './ImportLinks'
import { ImportResultView } from './ImportResultView'

/** Accepted files: .xlsx only (PRODUCT §5 "File import"). */
export const XLSX_ACCEPT = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * The Excel file import (PRODUCT §2): choose an .xlsx file, send it, then read
 * what was imported, or the "Erreur" tag with the server's message.
 */
export function FileImport() {
  const [file, setFile] = useState<File | null>(null)
  const { status, result, rejection } = useFileImport()
  const busy = status === 'busy'
  useEffect(() => clearFileImport, [])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!file || busy) return
    await importFile(file)
  }

  return (
    <Stack gap="sm">
      <form onSubmit={onSubmit} noValidate aria-label="Import d'un fichier Excel">
        <Stack gap="sm">
          <Text size="sm">
            Première feuille : « Produit » en A1, puis un mois par colonne (une date, 2026-12 ou 12/2026), puis une
            ligne par produit avec ses quantités. Les cellules vides sont ignorées.
          </Text>
          <FileInput
            label="Fichier Excel (.xlsx)"
            placeholder="Choisir un fichier"
            accept={XLSX_ACCEPT}
            value={file}
            onChange={(f) => {
              setFile(f)
              clearFileImport()
            }}
            clearable
          />
          <Group justify="space-between">
            <ImportLinks />
            <Button type="submit" disabled={!file || busy}>
              {busy ? 'en cours...' : 'Importer'}
            </Button>
          </Group>
        </Stack>
      </form>
      {rejection ? (
        <Group gap="xs" role="alert" wrap="nowrap" align="flex-start">
          <Badge color="red" variant="filled">
            Erreur
          </Badge>
          <Text size="sm">{rejection.detail}</Text>
        </Group>
      ) : null}
      {result ? (
        <ImportResultView count={result.dbSuccesses} failures={result.dbErrors} missing={result.productsMissing} />
      ) : null}
    </Stack>
  )
}
