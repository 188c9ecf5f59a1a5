import Foundation
import MyDayModels
import SQLKit

extension UUID {
    /// The form ids are stored and shown in: lowercase with hyphens.
    var lowercased: String { lowercasedString }
}

extension SQLRow {
    /// `decode(column:as: T?.self)` without the generic unwrapping path, which costs SQLite decoding several times more.
    func decodeOptional<T: Decodable>(column: String, as type: T.Type) throws -> T? {
        try decodeNil(column: column) ? nil : decode(column: column, as: type)
    }

    /// A column holding the raw value of a string enumeration.
    func decodeRawValue<Value: RawRepresentable<String>>(column: String) throws -> Value {
        let raw = try decode(column: column, as: String.self)
        guard let value = Value(rawValue: raw) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(column) holds '\(raw)'"))
        }
        return value
    }

    func decodeUUID(column: String) throws -> UUID {
        let text = try decode(column: column, as: String.self)
        guard let id = UUID(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(column) holds no UUID"))
        }
        return id
    }
}
