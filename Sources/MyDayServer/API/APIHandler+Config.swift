import MyDayAPI

extension APIHandler {
    func getConfig(_ input: Operations.GetConfig.Input) async throws -> Operations.GetConfig.Output {
        .ok(.init(body: .json(clientConfig)))
    }
}
