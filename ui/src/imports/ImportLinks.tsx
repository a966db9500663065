import { Anchor, Group } from '@mantine/core'

/** The example file and the product list (PRODUCT §2 "Downloads"). */
export const EXAMPLE_URL = '/public/other/exemple_import.xlsx'
export const PRODUCTS_URL = '/public/other/products.csv'

/** Links to the example import file and the product list. */
export function ImportLinks() {
  return (
    <Group gap="md">
      <Anchor href={EXAMPLE_URL} download="exemple_import.xlsx" size="sm">
        Télécharger le fichier d'exemple
      </Anchor>
      <Anchor href={PRODUCTS_URL} download="products.csv" size="sm">
        Télécharger la liste des produits
      </Anchor>
    </Group>
  )
}
