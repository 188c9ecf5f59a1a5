extension UInt8 {
    /// Whether this byte is an ASCII letter or digit: what a word of ASCII text is made of.
    public var isASCIILetterOrDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
