// Model methods for the dynamics area (filled in by its issue). install() adds them to Model.prototype.
export function install(Model) {
  void Model;
}
