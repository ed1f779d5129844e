package schema

import (
	"regexp"
	"strconv"
	"strings"
)

// formatPattern gives a hand-written matcher for the schemas' formats that fastPattern cannot
// read (they have groups and alternatives), or nil: the decimal formats of money, rates and
// quantities, the share of a participation, and the calendar date. Records carry them on every
// write, and Go's regexp was most of what checking one cost. pattern_formats_test.go holds each
// to its regular expression.
func formatPattern(pattern string) matcher {
	if m := decimalForm.FindStringSubmatch(pattern); m != nil {
		maxInt, err1 := strconv.Atoi(m[2])
		maxFrac, err2 := strconv.Atoi(m[3])
		if err1 != nil || err2 != nil || maxFrac < 1 {
			return nil
		}
		return decimalPattern{signed: m[1] != "", maxInt: maxInt + 1, maxFrac: maxFrac}
	}
	switch pattern {
	case sharePatternText:
		return sharePattern{}
	case datePatternText:
		return datePattern{}
	}
	return nil
}

// decimalForm reads the decimal formats: ^-?(?:0|[1-9][0-9]{0,N})(?:\.[0-9]{1,M})?$.
var decimalForm = regexp.MustCompile(`^\^(-\?)?\(\?:0\|\[1-9\]\[0-9\]\{0,([0-9]+)\}\)\(\?:\\\.\[0-9\]\{1,([0-9]+)\}\)\?\$$`)

// decimalPattern: an optional minus sign (signed), an integer part of 1 to maxInt digits with no
// leading zero, then optionally a point and 1 to maxFrac digits.
type decimalPattern struct {
	signed          bool
	maxInt, maxFrac int
}

func (p decimalPattern) MatchString(s string) bool {
	if p.signed && len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	whole, fraction, point := strings.Cut(s, ".")
	if len(whole) == 0 || len(whole) > p.maxInt || whole[0] == '0' && len(whole) > 1 || !digits(whole) {
		return false
	}
	return !point || len(fraction) >= 1 && len(fraction) <= p.maxFrac && digits(fraction)
}

// sharePatternText: a share of more than 0 and at most 100, with at most 2 decimals.
const sharePatternText = `^(?:100(?:\.0{1,2})?|[1-9][0-9]?(?:\.[0-9]{1,2})?|0\.(?:[1-9][0-9]?|0[1-9]))$`

type sharePattern struct{}

func (sharePattern) MatchString(s string) bool {
	whole, fraction, point := strings.Cut(s, ".")
	if point && (len(fraction) < 1 || len(fraction) > 2 || !digits(fraction)) {
		return false
	}
	zero := !point || fraction == "0" || fraction == "00"
	switch {
	case whole == "100":
		return zero
	case whole == "0":
		return point && !zero
	default:
		return len(whole) >= 1 && len(whole) <= 2 && whole[0] != '0' && digits(whole)
	}
}

// datePatternText: a calendar date YYYY-MM-DD of the years 1000 to 2999 (Gregorian leap years).
const datePatternText = `^(?:[12][0-9]{3}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[12][0-9](?:0[48]|[2468][048]|[13579][26])|(?:12|16|20|24|28)00)-02-29)$`

type datePattern struct{}

func (datePattern) MatchString(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' || !digits(s[0:4]) || !digits(s[5:7]) || !digits(s[8:10]) {
		return false
	}
	year := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	month := int(s[5]-'0')*10 + int(s[6]-'0')
	day := int(s[8]-'0')*10 + int(s[9]-'0')
	if year < 1000 || year > 2999 || month < 1 || month > 12 || day < 1 {
		return false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day <= days
}

// digits reports whether s is all ASCII digits.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
