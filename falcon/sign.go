package falcon

// signEngine is the signing half of an engine.
type signEngine interface{}
