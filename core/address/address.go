// Package address reads French postal addresses as people type them: the
// postcode and city of an address's lines, and the département a postcode
// belongs to.
package address

import (
	"regexp"
	"strings"
)

// postcodeRe is a line that starts with a French postcode: "74230 Thônes".
var postcodeRe = regexp.MustCompile(`^([0-9]{5})\s+(.+)$`)

// City finds the last line of lines that starts with a French postcode and
// returns its index, the postcode and the city; index is -1 when no line
// does.
func City(lines []string) (index int, postcode, city string) {
	index = -1
	for i, l := range lines {
		if m := postcodeRe.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			index, postcode, city = i, m[1], strings.TrimSpace(m[2])
		}
	}
	return index, postcode, city
}

// Department is the code of the département of a French postcode: "74"
// for 74230, "2A" or "2B" in Corsica, "971" to "976" overseas; "" when
// postcode is not one.
func Department(postcode string) string {
	if len(postcode) != 5 || strings.Trim(postcode, "0123456789") != "" {
		return ""
	}
	switch {
	case postcode < "01000":
		return ""
	case strings.HasPrefix(postcode, "20"):
		// Corse-du-Sud is 200xx and 201xx; Haute-Corse 202xx to 206xx.
		if postcode < "20200" {
			return "2A"
		}
		return "2B"
	case strings.HasPrefix(postcode, "97"), strings.HasPrefix(postcode, "98"):
		return postcode[:3]
	}
	return postcode[:2]
}

// DepartmentOf is the département of the last line of lines that starts
// with a French postcode; "" when none does.
func DepartmentOf(lines ...string) string {
	_, postcode, _ := City(lines)
	return Department(postcode)
}
