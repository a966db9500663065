package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"primeur/core/calendar"
	"primeur/core/decimal"
)

// KnownECBRates is the ECB's main refinancing rate in force on the first
// day of each semester (1 January, 1 July), in percent: the rate art.
// L441-10 of the Code de commerce adds 10 points to for the whole
// half-year. From the ECB's decisions (their dates of effect): 0.00 from
// 16 March 2016, 0.50 from 27 July 2022, 1.25 on 14 September, 2.00 on
// 2 November, 2.50 on 21 December 2022, 3.00 on 8 February 2023, 3.50 on
// 22 March, 3.75 on 10 May, 4.00 on 21 June, 4.25 on 2 August, 4.50 on
// 20 September 2023, 4.25 on 12 June 2024, 3.65 on 18 September, 3.40 on
// 23 October, 3.15 on 18 December 2024, 2.90 on 5 February 2025, 2.65 on
// 12 March, 2.40 on 23 April, 2.15 on 11 June 2025, unchanged at the
// meeting of 18 December 2025. payments.ecb-rates adds the semesters that
// follow.
const KnownECBRates = "2022-S1=0.00,2022-S2=0.00,2023-S1=2.50,2023-S2=4.00,2024-S1=4.50,2024-S2=4.25," +
	"2025-S1=3.15,2025-S2=2.15,2026-S1=2.15"

// maxECBRate bounds a rate, in hundredths of a percent: 20 %.
const maxECBRate = 2000

// ECBRates are the ECB's main refinancing rates per semester, in
// hundredths of a percent (2.15 % is 215): KnownECBRates, with the
// semesters of payments.ecb-rates added or replaced. Its zero value is
// KnownECBRates alone.
type ECBRates struct {
	table map[calendar.Semester]int64
	// after is payments.ecb-rate's, for the semesters after the last one
	// listed; -1 when it is not set.
	after int64
}

// known is KnownECBRates read once: the tests of the package check it.
var known = func() map[calendar.Semester]int64 {
	t, err := parseECBRates(KnownECBRates)
	if err != nil {
		panic(err)
	}
	return t
}()

// ECBRate is the rate of a semester and whether it is listed. A semester
// not listed takes the rate of the last semester listed before it — or,
// after the last one listed, payments.ecb-rate when it is set —, and one
// before the first listed the first's: a rate stays in force until the
// ECB changes it.
func (r ECBRates) ECBRate(s calendar.Semester) (rate int64, listed bool) {
	table := r.table
	if table == nil {
		table = known
	}
	if rate, ok := table[s]; ok {
		return rate, true
	}
	var before, after []calendar.Semester
	for k := range table {
		if k < s {
			before = append(before, k)
		} else {
			after = append(after, k)
		}
	}
	switch {
	case len(before) > 0 && len(after) == 0 && r.table != nil && r.after >= 0:
		return r.after, false
	case len(before) > 0:
		return table[slices.Max(before)], false
	}
	return table[slices.Min(after)], false
}

// parseRate reads a rate in percent, "2.15", into hundredths of a
// percent, from 0 to 20 with two decimals at most.
func parseRate(s string) (int64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	rate, ok := decimal.FromFloat(f)
	if err != nil || !ok || rate < 0 || rate > maxECBRate {
		return 0, false
	}
	return int64(rate), true
}

// parseECBRates reads "2026-S1=2.15,2026-S2=2.40" (spaces around the
// entries allowed, each semester once).
func parseECBRates(s string) (map[calendar.Semester]int64, error) {
	out := map[calendar.Semester]int64{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, entry := range strings.Split(s, ",") {
		sem, rate, ok := strings.Cut(strings.TrimSpace(entry), "=")
		semester, okS := calendar.ParseSemester(strings.TrimSpace(sem))
		bp, okR := parseRate(rate)
		if !ok || !okS || !okR {
			return nil, fmt.Errorf("« %s » n'est pas un semestre et un taux (2026-S1=2.15)", strings.TrimSpace(entry))
		}
		if _, dup := out[semester]; dup {
			return nil, fmt.Errorf("%s est donné deux fois", semester)
		}
		out[semester] = bp
	}
	return out, nil
}

// validateECBRates reads payments.ecb-rates and payments.ecb-rate into
// Payments.Rates.
func (c *Config) validateECBRates() error {
	extra, err := parseECBRates(c.Payments.ECBRates)
	if err != nil {
		return fmt.Errorf("%s : %v ; des taux en pourcentage de 0 à 20, à deux décimales au plus, par semestre écrit 2026-S1 ou 2026-S2, sont attendus",
			KeyPaymentsECBRates, err)
	}
	r := ECBRates{table: map[calendar.Semester]int64{}, after: -1}
	for s, rate := range known {
		r.table[s] = rate
	}
	for s, rate := range extra {
		r.table[s] = rate
	}
	if strings.TrimSpace(c.Payments.ECBRate) != "" {
		rate, ok := parseRate(c.Payments.ECBRate)
		if !ok {
			return fmt.Errorf("%s « %s » : un pourcentage de 0 à 20, à deux décimales au plus, est attendu (2.15)", KeyPaymentsECBRate, c.Payments.ECBRate)
		}
		r.after = rate
	}
	c.Payments.Rates = r
	return nil
}
