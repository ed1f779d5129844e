package schema

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The cross-field rules JSON Schema cannot express, one Go function per rule set, mirroring the
// TypeScript ones (src/asset.ts assetRules, src/liability.ts, src/cashFlow.ts, src/beneficiary.ts,
// src/protocol.ts pushRules and pullRules). They run only on documents that passed JSON Schema, so the type
// assertions below hold. The shared vectors pin both sides to the same paths and keys.

type report func(path []string, key string, params map[string]any)

func (s *schemaSet) runRules(name string, value any) []rawIssue {
	doc, _ := value.(map[string]any)
	var out []rawIssue
	add := func(path []string, key string, params map[string]any) {
		out = append(out, rawIssue{path: path, key: key, params: params})
	}
	switch name {
	case "asset":
		s.assetRules(doc, add)
	case "liability":
		endNotBeforeStart(doc, "startDate", "endDate", nil, add)
		liabilityRateAboveMinus100(doc, add)
	case "cashFlow":
		endNotBeforeStart(doc, "startDate", "endDate", nil, add)
	case "beneficiary":
		beneficiaryRules(doc, add)
	case "fxRate":
		fxRateRules(doc, add)
	case "personalIdentity":
		birthdayNotInFuture(doc, add)
	case "message.push":
		s.pushRules(doc, add)
	case "message.pull":
		pullRules(doc, add)
	}
	return out
}

// builtinAssetCategory says whether code is a built-in category of any class (src/enums.ts
// isBuiltinAssetCategory).
func (s *schemaSet) builtinAssetCategory(code string) bool {
	_, ok := s.builtinCategories[code]
	return ok
}

// IsBuiltinAssetCategory says whether code is one of the built-in asset categories (of any class,
// "custom" included). Any other category code of a valid asset is an admin-added asset_category
// enumeration, which the server checks when a record takes it.
func IsBuiltinAssetCategory(code string) bool {
	set, err := load()
	return err == nil && set.builtinAssetCategory(code)
}

func (s *schemaSet) assetRules(asset map[string]any, add report) {
	class, _ := asset["assetClass"].(string)
	category, _ := asset["category"].(string)
	// A built-in category must be one of its class; another code is an admin-added category, whose
	// existence the server checks when a record takes it (server/enums.AssetCategoryCheck).
	if s.builtinAssetCategory(category) && !slices.Contains(s.manifest.AssetCategoriesByClass[class], category) {
		add([]string{"category"}, "validation.asset.categoryNotInClass", nil)
	}
	_, hasCustom := asset["customCategory"]
	if category == "custom" && !hasCustom {
		add([]string{"customCategory"}, "validation.required", nil)
	}
	if category != "custom" && hasCustom {
		add([]string{"customCategory"}, "validation.notApplicable", nil)
	}
	for _, g := range s.assetGroups {
		if _, present := asset[g]; present && !slices.Contains(s.manifest.AssetGroups[g], class) {
			add([]string{g}, "validation.asset.groupNotForClass", nil)
		}
	}
	if tax, ok := asset["taxLocation"].(map[string]any); ok {
		if tax["noTaxRegistration"] == true {
			for _, f := range []string{"country", "state", "city"} {
				if _, present := tax[f]; present {
					add([]string{"taxLocation", f}, "validation.asset.noTaxRegistration", nil)
				}
			}
		} else if _, present := tax["country"]; !present {
			add([]string{"taxLocation", "country"}, "validation.required", nil)
		}
	}
	purchase, _ := asset["purchaseDate"].(string)
	valuation, _ := asset["valuationDate"].(string)
	if purchase != "" && valuation != "" && purchase > valuation {
		add([]string{"valuationDate"}, "validation.date.valuationBeforePurchase", nil)
	}
	if derivative, ok := asset["derivative"].(map[string]any); ok {
		endNotBeforeStart(derivative, "startDate", "expiryDate", []string{"derivative"}, add)
	}

	if disposal, ok := asset["disposal"].(map[string]any); ok {
		if _, present := disposal["amount"]; disposal["kind"] == "sold" && !present {
			add([]string{"disposal", "amount"}, "validation.required", nil)
		}
		// Not after the latest calendar date anywhere on Earth (UTC+14), like a birthday.
		date, _ := disposal["date"].(string)
		if date > time.Now().UTC().Add(14*time.Hour).Format("2006-01-02") {
			add([]string{"disposal", "date"}, "validation.date.disposalInFuture", nil)
		} else if purchase != "" && purchase > date {
			add([]string{"disposal", "date"}, "validation.date.disposalBeforePurchase", nil)
		}
	}

	total := hundredths(asset["participation"].(string))
	owners, _ := asset["otherOwners"].([]any)
	for _, o := range owners {
		owner, _ := o.(map[string]any)
		total += hundredths(owner["percentage"].(string))
	}
	switch {
	case total > 10000:
		add([]string{"participation"}, "validation.percent.sumExceeds", nil)
	case total < 10000:
		add([]string{"participation"}, "validation.percent.remaining", map[string]any{"remaining": float64(10000-total) / 100})
	}
}

// endNotBeforeStart reports the end date when it is before the start date (dates are YYYY-MM-DD,
// so string order is date order).
func endNotBeforeStart(doc map[string]any, startField, endField string, prefix []string, add report) {
	start, _ := doc[startField].(string)
	end, _ := doc[endField].(string)
	if start != "" && end != "" && start > end {
		add(append(append([]string{}, prefix...), endField), "validation.date.endBeforeStart", nil)
	}
}

// liabilityMinRateHundredths is the lowest interest rate of a debt, −99.99 % (src/liability.ts
// LIABILITY_RATE_MIN_HUNDREDTHS): at −100 % or less a payment plan means nothing.
const liabilityMinRateHundredths = -9999

// liabilityRateAboveMinus100 refuses a debt's rate of −100 % or less (src/liability.ts
// liabilityRules), with the schema's minimum message.
func liabilityRateAboveMinus100(liability map[string]any, add report) {
	rate, ok := liability["rate"].(string)
	if ok && hundredths(rate) < liabilityMinRateHundredths {
		add([]string{"rate"}, "validation.number.min", map[string]any{"min": float64(liabilityMinRateHundredths) / 100})
	}
}

// birthdayNotInFuture refuses a birthday after the latest calendar date anywhere on Earth now
// (UTC+14), like src/personalIdentity.ts latestToday.
func birthdayNotInFuture(identity map[string]any, add report) {
	birthday, _ := identity["birthday"].(string)
	if birthday > time.Now().UTC().Add(14*time.Hour).Format("2006-01-02") {
		add([]string{"birthday"}, "validation.personalIdentity.birthdayFuture", nil)
	}
}

func beneficiaryRules(beneficiary map[string]any, add report) {
	allocations, _ := beneficiary["allocations"].([]any)
	seen := map[string]bool{}
	for i, a := range allocations {
		allocation, _ := a.(map[string]any)
		target, _ := allocation["assetId"].(string)
		if seen[target] {
			add([]string{"allocations", fmt.Sprint(i), "assetId"}, "validation.beneficiary.duplicateAllocation", nil)
		}
		seen[target] = true
	}
}

func (s *schemaSet) pushRules(push map[string]any, add report) {
	mutations, _ := push["mutations"].([]any)
	var previous int64
	for i, m := range mutations {
		mutation, _ := m.(map[string]any)
		at := func(rest ...string) []string { return append([]string{"mutations", fmt.Sprint(i)}, rest...) }
		id, _ := asInt64(mutation["mutationId"])
		if id <= previous {
			add(at("mutationId"), "validation.protocol.mutationOrder", nil)
		}
		previous = max(previous, id)
		collection, _ := mutation["collection"].(string)
		known, _ := s.properties(s.manifest.Collections[collection])
		fields, hasFields := mutation["fields"].(map[string]any)
		op, _ := mutation["op"].(string)
		switch op {
		case "put":
			if len(fields) == 0 {
				add(at("fields"), "validation.required", nil)
			}
		case "restore":
		default:
			if hasFields {
				add(at("fields"), "validation.notApplicable", nil)
			}
		}
		resolves, _ := mutation["resolves"].([]any)
		if op == "resolve" && len(resolves) == 0 {
			add(at("resolves"), "validation.required", nil)
		}
		for name := range fields {
			if _, ok := known[name]; !ok {
				add(at("fields", name), "validation.unknownField", nil)
			}
		}
		base, _ := mutation["base"].(map[string]any)
		for name := range base {
			if _, ok := known[name]; !ok {
				add(at("base", name), "validation.unknownField", nil)
			}
		}
		for j, r := range resolves {
			key, _ := r.(map[string]any)
			field, _ := key["field"].(string)
			if _, ok := known[field]; !ok {
				add(at("resolves", fmt.Sprint(j), "field"), "validation.unknownField", nil)
			}
		}
	}
}

// pullRules: after reads changes, pageToken continues a snapshot; not both (src/protocol.ts
// pullRules).
func pullRules(pull map[string]any, add report) {
	_, after := pull["after"]
	_, token := pull["pageToken"]
	if after && token {
		add([]string{"pageToken"}, "validation.notApplicable", nil)
	}
}

// hundredths turns a share or rate string that passed its pattern ("12.5") into 1250.
func hundredths(value string) int64 {
	negative := strings.HasPrefix(value, "-")
	whole, fraction, _ := strings.Cut(strings.TrimPrefix(value, "-"), ".")
	var n int64
	for _, c := range whole {
		n = n*10 + int64(c-'0')
	}
	fraction = (fraction + "00")[:2]
	n = n*100 + int64(fraction[0]-'0')*10 + int64(fraction[1]-'0')
	if negative {
		return -n
	}
	return n
}

// ParticipationValue is the owner's part of an asset's current value: currentValue ×
// participation / 100, exact, rounded half up to 4 decimals (the money format). Both arguments
// must already be valid (money and share formats). Mirrors participationValue in src/asset.ts.
func ParticipationValue(currentValue, participation string) (string, error) {
	value, ok := new(big.Rat).SetString(currentValue)
	if !ok || value.Sign() < 0 {
		return "", fmt.Errorf("participation value: bad amount %q", currentValue)
	}
	share, ok := new(big.Rat).SetString(participation)
	if !ok || share.Sign() <= 0 {
		return "", fmt.Errorf("participation value: bad share %q", participation)
	}
	product := new(big.Rat).Mul(value, share)
	product.Quo(product, big.NewRat(100, 1))
	// Round half up to 4 decimals: floor(x * 10^4 + 1/2).
	scaled := new(big.Rat).Mul(product, big.NewRat(10_000, 1))
	scaled.Add(scaled, big.NewRat(1, 2))
	units := new(big.Int).Quo(scaled.Num(), scaled.Denom())
	digits := units.String()
	if len(digits) < 5 {
		digits = strings.Repeat("0", 5-len(digits)) + digits
	}
	intPart, frac := digits[:len(digits)-4], strings.TrimRight(digits[len(digits)-4:], "0")
	if frac == "" {
		return intPart, nil
	}
	return intPart + "." + frac, nil
}

// registeredFormats are the "format" names the generated schemas use. The regex "pattern" next
// to each format does the checking; only isin adds what a regex cannot: its check digit.
// Registering every name also replaces the library's own "date"/"email"/"uuid" checks, so Go
// and zod accept exactly the same strings.
func registeredFormats() []*jsonschema.Format {
	noop := func(any) error { return nil }
	var out []*jsonschema.Format
	for _, name := range formatNames {
		out = append(out, &jsonschema.Format{Name: name, Validate: noop})
	}
	return append(out, &jsonschema.Format{Name: "isin", Validate: func(v any) error {
		s, ok := v.(string)
		if !ok || !isinShape(s) || ValidISIN(s) {
			return nil // not a string, or the pattern already reports it
		}
		return fmt.Errorf("ISIN check digit does not match")
	}})
}

var formatNames = []string{
	"text", "money", "price", "quantity", "share", "rate", "interestRate", "multiple", "date", "email", "phone", "httpUrl",
	"code", "uuid", "uuidv7", "hlc", "fieldName", "nodeId", "otpCode", "vaultCiphertext", "vaultKeyId", "vaultSalt",
	"vaultWrappedKey", "statementMovementId",
}

func isinShape(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < 12; i++ {
		c := s[i]
		upper, digit := c >= 'A' && c <= 'Z', c >= '0' && c <= '9'
		switch {
		case i < 2 && !upper, i >= 2 && i < 11 && !upper && !digit, i == 11 && !digit:
			return false
		}
	}
	return true
}

// ValidISIN reports whether s is an ISIN with a correct check digit (letters count as 10..35,
// then the Luhn algorithm over the resulting digits). Mirrors isValidIsin in src/primitives.ts.
func ValidISIN(s string) bool {
	if !isinShape(s) {
		return false
	}
	var digits strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			fmt.Fprint(&digits, int(c-'A')+10)
		} else {
			digits.WriteByte(c)
		}
	}
	d := digits.String()
	sum := 0
	for i := 0; i < len(d); i++ {
		n := int(d[len(d)-1-i] - '0')
		if i%2 == 1 {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
	}
	return sum%10 == 0
}

// fxRateRules mirrors src/fxRate.ts: a manual exchange rate prices a currency other than EUR at
// more than 0 units per EUR.
var zeroDecimal = regexp.MustCompile(`^0(?:\.0+)?$`)

func fxRateRules(rate map[string]any, add report) {
	if c, _ := rate["currency"].(string); c == "EUR" {
		add([]string{"currency"}, "validation.fxRate.euro", nil)
	}
	if v, _ := rate["perEur"].(string); zeroDecimal.MatchString(v) {
		add([]string{"perEur"}, "validation.fxRate.zero", nil)
	}
}
