// "Recherche par code postal" (PRODUCT §2 "Map"): a combobox over the city
// reference — a postal code or a town, fuzzy — whose pick the map centres on.
// Keyboard: arrows move in the list, Enter picks (the first suggestion when
// none is selected), Escape closes it.
import { Combobox, Group, Text, TextInput, useCombobox } from '@mantine/core'
import { useMemo, useState } from 'react'
import { type CityMatch, cityLabel, searchCities } from './cities'

const LIMIT = 8

/** The value of an option: the town and the postal code it matched. */
const optionValue = (m: CityMatch) => `${m.city.id}|${m.postalCode}`

export function MapSearch({ onPick }: { onPick: (match: CityMatch) => void }) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() })
  const [query, setQuery] = useState('')
  const matches = useMemo(() => searchCities(query, LIMIT), [query])

  const pick = (value: string) => {
    const match = matches.find((m) => optionValue(m) === value)
    if (!match) return
    setQuery(cityLabel(match))
    combobox.closeDropdown()
    onPick(match)
  }

  return (
    <Combobox store={combobox} onOptionSubmit={pick} withinPortal={false}>
      <Combobox.Target withExpandedAttribute>
        <TextInput
          label="Recherche par code postal"
          description="Un code postal ou une ville : la carte s'y centre et liste les magasins à moins de 30 km."
          placeholder="74000 ou Annecy"
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value)
            combobox.openDropdown()
            // The first suggestion is the one Enter takes.
            requestAnimationFrame(() => combobox.selectFirstOption())
          }}
          onFocus={() => query.trim() && combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          autoComplete="off"
          type="search"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={query.trim() === ''}>
        <Combobox.Options aria-label="Villes trouvées">
          {matches.length === 0 ? (
            <Combobox.Empty>Aucune ville ne correspond</Combobox.Empty>
          ) : (
            matches.map((m) => (
              <Combobox.Option key={optionValue(m)} value={optionValue(m)}>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm">{cityLabel(m)}</Text>
                  {m.approximate ? (
                    <Text size="xs" c="dimmed">
                      ville principale du département
                    </Text>
                  ) : null}
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  )
}
