// Model methods for the trajectory area (filled in by its issue). install() adds them to Model.prototype.
export function install(Model) {
  void Model;
}
