package enums

import (
	"context"
	"fmt"

	"patrimonio/core"
)

// texts are the service's user-visible texts, {Spanish, English}; texts with verbs take the same
// arguments in both languages (a test checks it).
var texts = map[string][2]string{
	"type":            {"El tipo de enumeración no existe.", "The enumeration type does not exist."},
	"level":           {"El nivel debe ser un código: letras, números, _, . o -.", "The level must be a code: letters, digits, _, . or -."},
	"levels":          {"Indica como máximo %d niveles.", "Give at most %d levels."},
	"parentId":        {"El padre debe ser un número positivo.", "The parent must be a positive number."},
	"code":            {"El código debe tener de 1 a %d caracteres: letras, números, _, . o -, empezando por letra o número.", "The code must have 1 to %d characters: letters, digits, _, . or -, starting with a letter or digit."},
	"label":           {"Las etiquetas en español e inglés son obligatorias y tienen como máximo %d caracteres.", "The Spanish and English labels are required and have at most %d characters."},
	"parentRequired":  {"Este tipo de valor necesita un padre (por ejemplo, el país de una provincia).", "This type of value needs a parent (for example, the country of a province)."},
	"noParent":        {"Los valores de este tipo no tienen padre.", "Values of this type have no parent."},
	"parentMissing":   {"El padre indicado no existe.", "The parent given does not exist."},
	"parentType":      {"El padre no es del tipo adecuado para este valor.", "The parent is not of the right type for this value."},
	"codeTaken":       {"Ya existe un valor con el código %s en este tipo.", "A value with the code %s already exists in this type."},
	"reorderCount":    {"Indica de 1 a %d valores para ordenar.", "Give 1 to %d values to order."},
	"reorderSiblings": {"Para ordenar, indica todos los valores del mismo tipo y el mismo padre, cada uno una vez.", "To reorder, give every value of one type under one parent, each once."},
	"limit":           {"El límite debe estar entre 1 y %d.", "The limit must be between 1 and %d."},
	"offset":          {"El desplazamiento no puede ser negativo.", "The offset must not be negative."},
	"notFound":        {"No se ha encontrado el valor de la enumeración.", "Enumeration value not found."},
}

func text(ctx context.Context, key string, args ...any) string {
	t := texts[key][0]
	if core.LanguageFrom(ctx) == core.LangEN {
		t = texts[key][1]
	}
	if len(args) > 0 {
		t = fmt.Sprintf(t, args...)
	}
	return t
}

func invalid(ctx context.Context, key string, args ...any) *core.Error {
	return &core.Error{Code: core.EINVALID, Message: text(ctx, key, args...)}
}

func notFound(ctx context.Context) *core.Error {
	return &core.Error{Code: core.ENOTFOUND, Message: text(ctx, "notFound")}
}
