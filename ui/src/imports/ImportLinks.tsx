import { Anchor, Group } from '@mantine/core'

/** The example file and the product list (PRODUCT §2 "Downloads"). */
export const EXAMPLE_URL = '/public/other/exemple_import.xlsx'
export const PRODUCTS_URL = '/public/other/products.csv'
export const PRODUCTS_XLSX_URL = '/public/other/produits.xlsx'

/** Links to the example import file and the product list (CSV and Excel). */
export function ImportLinks() {
  return (
    <Group gap="md">
      <Anchor href={EXAMPLE_URL} download="exemple_import.xlsx" size="sm">
        Télécharger le fichier d'exemple
      </Anchor>
      <Anchor href={PRODUCTS_URL} download="products.csv" size="sm">
        Télécharger la liste des produits
      </Anchor>
      <Anchor href={PRODUCTS_XLSX_URL} download="produits.xlsx" size="sm">
        Liste des produits au format Excel
      </Anchor>
    </Group>
  )
}
