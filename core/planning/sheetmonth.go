package planning

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"primeur/core/calendar"
	"primeur/core/catalog"
)

// Excel serial numbers of 2000-01-01 and 2101-01-01 (1900 date system): a
// number in a month header must be a date of this century.
const (
	serial2000 = 36526
	serial2101 = 73416
)

// monthNames are the months as French and English spreadsheets write them,
// without accents (catalog.NameKey's form); a header may give any prefix of
// three letters or more that names one month only ("janv", "fev", "sept",
// "juil").
var monthNames = [12][]string{
	{"janvier", "january"}, {"fevrier", "february"}, {"mars", "march"}, {"avril", "april"},
	{"mai", "may"}, {"juin", "june"}, {"juillet", "july"}, {"aout", "august"},
	{"septembre", "september"}, {"octobre", "october"}, {"novembre", "november"}, {"decembre", "december"},
}

// monthByName returns the month a word names (1–12), or 0: a prefix of
// three letters or more of one month's name only.
func monthByName(word string) time.Month {
	if len(word) < 3 {
		return 0
	}
	found := time.Month(0)
	for i, names := range monthNames {
		for _, n := range names {
			if strings.HasPrefix(n, word) {
				if found != 0 && found != time.Month(i+1) {
					return 0 // "jui": juin or juillet
				}
				found = time.Month(i + 1)
			}
		}
	}
	return found
}

// isMonthPrefix reports a word of three letters or more that begins a
// month's name, even of several months.
func isMonthPrefix(word string) bool {
	for _, names := range monthNames {
		for _, n := range names {
			if len(word) >= 3 && strings.HasPrefix(n, word) {
				return true
			}
		}
	}
	return false
}

// monthHeader is what a header cell says of a month.
type monthHeader int

const (
	notMonth  monthHeader = iota // words, or nothing like a month
	isMonth                      // a month of a year
	badMonth                     // digits or a month name, but no month read: a typing error
	noYearYet                    // a month name without its year
)

// readMonth reads a month header as a shop writes it: a date cell (an Excel
// serial number, or an ISO date of a date-typed cell), "2027-01",
// "2027-01-01", "01/2027", "1/2027", "01/01/2027", "1/1/27", "janvier 2027",
// "janv. 2027", "Janv.-27", "févr 2027" (French or English month names, any
// case and accents, a two-digit year meaning 20YY). date1904 shifts serial
// numbers of workbooks counting from 1904.
func readMonth(raw string, date1904 bool) (calendar.Month, monthHeader) {
	raw = strings.TrimSpace(raw)
	if f, err := strconv.ParseFloat(raw, 64); err == nil {
		if date1904 {
			f += 1462
		}
		if math.IsNaN(f) || f < serial2000 || f >= serial2101 {
			return 0, badMonth
		}
		t, err := excelize.ExcelDateToTime(f, false)
		if err != nil {
			return 0, badMonth
		}
		return calendar.MonthOf(t), isMonth
	}
	if len(raw) > 10 && (raw[10] == 'T' || raw[10] == ' ') { // a date-typed cell, "2027-01-01T00:00:00"
		if m, ok := calendar.ParseMonth(raw[:10]); ok {
			return m, isMonth
		}
	}
	words := strings.Fields(catalog.NameKey(raw))
	var digits []int
	var lens []int
	month := time.Month(0)
	letters := false
	for _, w := range words {
		if n, err := strconv.Atoi(w); err == nil {
			digits = append(digits, n)
			lens = append(lens, len(w))
			continue
		}
		letters = true
		if m := monthByName(w); m != 0 && month == 0 {
			month = m
			continue
		}
		if month == 0 && len(words) <= 3 && isMonthPrefix(w) {
			return 0, badMonth // "jui 2027": juin or juillet
		}
		if month == 0 || len(words) > 3 {
			return 0, notMonth // words that are not a month: a comment column, a title
		}
		return 0, badMonth
	}
	year := func(n, l int) (int, bool) {
		switch {
		case l == 4 && n >= calendar.MinYear && n <= calendar.MaxYear:
			return n, true
		case l == 2:
			return 2000 + n, true
		}
		return 0, false
	}
	of := func(y int, m time.Month) (calendar.Month, monthHeader) {
		if m < 1 || m > 12 || y < calendar.MinYear || y > calendar.MaxYear {
			return 0, badMonth
		}
		return calendar.MonthOfParts(y, m), isMonth
	}
	switch {
	case month != 0 && len(digits) == 0:
		return 0, noYearYet
	case month != 0 && len(digits) == 1:
		if y, ok := year(digits[0], lens[0]); ok {
			return of(y, month)
		}
	case month != 0:
		return 0, badMonth
	case letters:
		return 0, notMonth
	case len(digits) == 2 && lens[0] == 4: // 2027-01
		return of(digits[0], time.Month(digits[1]))
	case len(digits) == 2 && lens[1] == 4: // 01/2027
		return of(digits[1], time.Month(digits[0]))
	case len(digits) == 3 && lens[0] == 4: // 2027-01-01
		if d, ok := validDay(digits[0], digits[1], digits[2]); ok {
			return d.Month(), isMonth
		}
	case len(digits) == 3: // 01/01/2027, 1/1/27
		if y, ok := year(digits[2], lens[2]); ok {
			if d, ok := validDay(y, digits[1], digits[0]); ok {
				return d.Month(), isMonth
			}
		}
	case len(digits) == 0:
		return 0, notMonth
	}
	return 0, badMonth
}

// validDay is the date of year, month and day when it exists.
func validDay(y, m, d int) (calendar.Date, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 || y < calendar.MinYear || y > calendar.MaxYear {
		return 0, false
	}
	date := calendar.Civil(y, time.Month(m), d)
	if date.Day() != d {
		return 0, false // 31/02
	}
	return date, true
}
